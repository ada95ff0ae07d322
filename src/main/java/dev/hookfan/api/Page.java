package dev.hookfan.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.List;

/** One page of a listing; {@code next} is the opaque cursor of the following page, or null. */
@RegisterForReflection
public record Page<T>(List<T> items, String next) {
}
