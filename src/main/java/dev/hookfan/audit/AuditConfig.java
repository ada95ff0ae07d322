package dev.hookfan.audit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.Set;

@ConfigMapping(prefix = "hookfan.audit")
public interface AuditConfig {

    /** Event types recorded in the audit log; "*" records every type. */
    @WithDefault("*")
    Set<String> eventTypes();
}
