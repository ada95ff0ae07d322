package dev.hookfan.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookfan.api.Problem.FieldError;
import jakarta.validation.Validation;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reader alone: what Jackson refuses, what Bean Validation and the caller's checks add, in one answer. */
class RequestBodiesTest {

    record Sample(@NotNull(message = "is required") String name,
                  @Size(max = 2, message = "must have at most 2 entries") List<@Pattern(regexp = "[a-z]+", message = "must be lowercase") String> tags,
                  Boolean on, Integer count, Double ratio, Map<String, String> labels) {
    }

    static final ObjectMapper JSON = new ObjectMapper();
    static final RequestBodies BODIES = new RequestBodies(JSON, Validation.byDefaultProvider().configure()
            .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory().getValidator());

    static List<FieldError> refused(String body, java.util.function.Predicate<String> judged) {
        return assertThrows(ValidationException.class, () -> BODIES.read(JSON.readTree(body), Sample.class, "must be an object",
                sample -> "bob".equals(sample.name()) ? List.of(new FieldError("name", "is taken")) : List.of(), judged))
                .problem().errors();
    }

    static Map<String, String> byField(List<FieldError> errors) {
        return errors.stream().collect(Collectors.toMap(FieldError::field, FieldError::message));
    }

    @Test
    void a_field_jackson_stops_at_is_named_beside_those_it_had_already_refused() {
        // A map cannot be read from an empty string: Jackson gives up there instead of recording it and going on.
        Map<String, String> errors = byField(refused("{\"name\":1,\"labels\":\"\"}", field -> true));
        assertEquals(Set.of("name", "labels"), errors.keySet());
    }

    @Test
    void wrong_types_unknown_fields_and_constraints_are_named_together_each_once() {
        Map<String, String> errors = byField(refused("{\"name\":1,\"tags\":[\"a\",\"B\",3],\"on\":\"true\",\"count\":1.5,"
                + "\"ratio\":\"2\",\"labels\":{\"x\":2,\"y\":\"ok\"},\"extra\":{\"deep\":[1]}}", field -> true));
        assertEquals(Set.of("name", "tags", "tags[1]", "tags[2]", "on", "count", "ratio", "labels.x", "extra"), errors.keySet());
        assertEquals("must be a string", errors.get("name"));
        assertEquals("must be lowercase", errors.get("tags[1]"));
        assertEquals("must be a string", errors.get("tags[2]"));
        assertEquals("must have at most 2 entries", errors.get("tags"));
        assertEquals("must be true or false", errors.get("on"));
        assertEquals("must be a whole number", errors.get("count"));
        assertEquals("must be a number", errors.get("ratio"));
        assertTrue(errors.get("extra").startsWith("is not a field of this request (fields: "), errors.get("extra"));
        assertTrue(errors.get("extra").contains("labels"), errors.get("extra"));
    }

    @Test
    void missing_fields_null_booleans_the_callers_checks_and_the_body_itself_are_named() {
        assertEquals(Map.of("name", "is required", "on", "must be true or false"), byField(refused("{\"on\":null}", field -> true)));
        assertEquals(Map.of("name", "is taken"), byField(refused("{\"name\":\"bob\"}", field -> true)));
        assertEquals(Map.of("tags", "must be an array", "labels", "must be an object"),
                byField(refused("{\"name\":\"x\",\"tags\":\"a\",\"labels\":[1]}", field -> true)));
        assertEquals(List.of(new FieldError("body", "must be an object")), refused("[1]", field -> true));
    }

    @Test
    void only_the_judged_fields_are_held_against_the_body() throws Exception {
        JsonNode body = JSON.readTree("{\"name\":\"bob\",\"tags\":[\"A\"],\"on\":true}");
        assertEquals(Map.of("tags[0]", "must be lowercase"), byField(refused(body.toString(), "tags"::equals)));
        Sample read = BODIES.read(body, Sample.class, "must be an object", sample -> List.of(), "on"::equals);
        assertEquals(new Sample("bob", List.of("A"), true, null, null, null), read);
    }
}
