package dev.hookfan.api;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookfan.api.Problem.FieldError;
import jakarta.inject.Singleton;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.validation.Validator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Reads a JSON request body into its record and names every field that breaks the contract in one 400: Jackson
 * records unknown fields and wrong types and reads on ({@link StrictJson}), Bean Validation adds the record's
 * constraints, and the caller adds the checks no constraint can say.
 */
@Singleton
public class RequestBodies {

    private final ObjectMapper mapper;
    private final Validator validator;

    RequestBodies(ObjectMapper mapper, Validator validator) {
        this.mapper = StrictJson.recording(mapper);
        this.validator = validator;
    }

    /**
     * The body as a {@code type}, or a {@link ValidationException} naming each broken field: {@code shape} says what the
     * body must be when it is no JSON object; {@code checks} see the record as read, a field Jackson refused being null.
     */
    public <T> T read(JsonNode body, Class<T> type, String shape, Function<T, List<FieldError>> checks) {
        return read(body, type, shape, checks, field -> true);
    }

    /** As {@link #read}, reporting only the errors of the top-level fields {@code judged} accepts. */
    public <T> T read(JsonNode body, Class<T> type, String shape, Function<T, List<FieldError>> checks,
                      Predicate<String> judged) {
        if (body == null || !body.isObject()) {
            throw ValidationException.of("body", shape);
        }
        List<FieldError> refused = new ArrayList<>();
        T value;
        try {
            value = mapper.readerFor(type).withAttribute(StrictJson.ERRORS, refused).readValue(body);
        } catch (JsonMappingException e) {
            // Jackson stopped at this field: name it beside those it had already refused.
            List<FieldError> errors = new ArrayList<>(refused);
            errors.add(new FieldError(field(e), StrictJson.expected(Object.class)));
            throw new ValidationException(errors.stream().distinct().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<FieldError> broken = new ArrayList<>();
        validator.validate(value).forEach(violation -> broken.add(new FieldError(field(violation), violation.getMessage())));
        broken.addAll(checks.apply(value));
        List<FieldError> errors = new ArrayList<>(refused);
        broken.stream().filter(error -> judged.test(error.field().split("[\\[.]", 2)[0]))
                .filter(error -> refused.stream().noneMatch(first -> within(error.field(), first.field())))
                .sorted(Comparator.comparing(FieldError::field)).forEach(errors::add);
        if (!errors.isEmpty()) {
            throw new ValidationException(errors.stream().distinct().toList());
        }
        return value;
    }

    /** A field already refused for its type is not also reported for what its null breaks. */
    private static boolean within(String field, String refused) {
        return field.equals(refused) || field.startsWith(refused + ".") || field.startsWith(refused + "[");
    }

    /** The violation's path as the API names fields: {@code eventTypes[2]}, {@code headers.X-Tenant}. */
    private static String field(ConstraintViolation<?> violation) {
        StringBuilder field = new StringBuilder();
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getIndex() != null) {
                field.append('[').append(node.getIndex()).append(']');
            } else if (node.getKey() != null) {
                field.append('.').append(node.getKey());
            }
            if (node.getKind() == ElementKind.PROPERTY) {
                field.append(field.isEmpty() ? "" : ".").append(node.getName());
            }
        }
        return field.isEmpty() ? "body" : field.toString();
    }

    private static String field(JsonMappingException e) {
        String field = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining());
        return field.isEmpty() ? "body" : field.startsWith(".") ? field.substring(1) : field;
    }
}
