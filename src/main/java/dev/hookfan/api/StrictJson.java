package dev.hookfan.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.hookfan.api.Problem.FieldError;

import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Jackson as request bodies want it: no scalar coercion (1 is no string, "1" no number, "true" no boolean), and a wrong
 * type or an unknown field recorded under its path, as a {@link FieldError} in the {@link #ERRORS} attribute, while
 * the read goes on to the next field.
 */
final class StrictJson {

    /** The read's attribute holding its {@code List<FieldError>}. */
    static final String ERRORS = "hookfan.field-errors";

    private StrictJson() {
    }

    static ObjectMapper recording(ObjectMapper mapper) {
        SimpleModule strict = new SimpleModule("hookfan-strict-scalars")
                .addDeserializer(String.class, new Text())
                .addDeserializer(Boolean.class, new Bool())
                .addDeserializer(Integer.class, new WholeNumber())
                .addDeserializer(Double.class, new Decimal())
                .addDeserializer(Instant.class, new Moment());
        return mapper.copy().registerModule(strict).addHandler(new Recorder());
    }

    /** What a field of this type must be, said to the caller who sent another type. */
    static String expected(Class<?> type) {
        if (type == String.class) {
            return "must be a string";
        } else if (type == Boolean.class) {
            return "must be true or false";
        } else if (type == Integer.class) {
            return "must be a whole number";
        } else if (type == Double.class) {
            return "must be a number";
        } else if (type == Instant.class) {
            return "must be an ISO-8601 instant with an offset, such as 2026-12-01T00:00:00Z";
        } else if (Collection.class.isAssignableFrom(type)) {
            return "must be an array";
        } else if (Map.class.isAssignableFrom(type)) {
            return "must be an object";
        }
        return "has the wrong type or format";
    }

    /** The JSON path of the value the parser is on, as the API names fields: {@code eventTypes[2]}, {@code headers.X-Tenant}. */
    static String path(JsonParser parser) {
        JsonStreamContext context = parser.getParsingContext();
        if (parser.currentToken() != null && parser.currentToken().isStructStart()) {
            context = context.getParent();
        }
        Deque<String> parts = new ArrayDeque<>();
        for (; context != null && !context.inRoot(); context = context.getParent()) {
            if (context.inArray()) {
                parts.push("[" + context.getCurrentIndex() + "]");
            } else if (context.getCurrentName() != null) {
                parts.push("." + context.getCurrentName());
            }
        }
        String path = String.join("", parts);
        return path.startsWith(".") ? path.substring(1) : path;
    }

    @SuppressWarnings("unchecked")
    private static void record(DeserializationContext context, String field, String message) {
        ((List<FieldError>) context.getAttribute(ERRORS)).add(new FieldError(field, message));
    }

    /** Records what Jackson could not bind and answers null for it, so the rest of the body is still read. */
    private static final class Recorder extends DeserializationProblemHandler {

        @Override
        public boolean handleUnknownProperty(DeserializationContext context, JsonParser parser, JsonDeserializer<?> deserializer,
                                             Object beanOrClass, String propertyName) throws IOException {
            String fields = deserializer.getKnownPropertyNames().stream().map(String::valueOf).collect(Collectors.joining(", "));
            record(context, path(parser), "is not a field of this request (fields: " + fields + ")");
            parser.skipChildren();
            return true;
        }

        @Override
        public Object handleUnexpectedToken(DeserializationContext context, JavaType targetType, JsonToken token,
                                            JsonParser parser, String failureMessage) throws IOException {
            record(context, path(parser), expected(targetType.getRawClass()));
            parser.skipChildren();
            return null;
        }

        @Override
        public Object handleMissingInstantiator(DeserializationContext context, Class<?> instanceClass,
                                                ValueInstantiator instantiator, JsonParser parser, String message) throws IOException {
            record(context, path(parser), expected(instanceClass));
            parser.skipChildren();
            return null;
        }

        @Override
        public Object handleWeirdStringValue(DeserializationContext context, Class<?> targetType, String value, String message) {
            record(context, path(context.getParser()), expected(targetType));
            return null;
        }

        @Override
        public Object handleWeirdNumberValue(DeserializationContext context, Class<?> targetType, Number value, String message) {
            record(context, path(context.getParser()), expected(targetType));
            return null;
        }
    }

    private static final class Text extends StdScalarDeserializer<String> {
        Text() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.hasToken(JsonToken.VALUE_STRING)) {
                return parser.getText();
            }
            return (String) context.handleUnexpectedToken(String.class, parser);
        }
    }

    /** null is refused too: a boolean field is either absent (its default) or true or false. */
    private static final class Bool extends StdScalarDeserializer<Boolean> {
        Bool() {
            super(Boolean.class);
        }

        @Override
        public Boolean deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken().isBoolean()) {
                return parser.getBooleanValue();
            }
            return (Boolean) context.handleUnexpectedToken(Boolean.class, parser);
        }

        @Override
        public Boolean getNullValue(DeserializationContext context) {
            // Also asked for an absent field (at the object's end) and after a refused value: only a JSON null is refused here.
            JsonParser parser = context.getParser();
            if (parser == null || !parser.hasToken(JsonToken.VALUE_NULL)) {
                return null;
            }
            record(context, path(parser), expected(Boolean.class));
            return null;
        }
    }

    private static final class WholeNumber extends StdScalarDeserializer<Integer> {
        WholeNumber() {
            super(Integer.class);
        }

        @Override
        public Integer deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.hasToken(JsonToken.VALUE_NUMBER_INT) && parser.getNumberType() == JsonParser.NumberType.INT) {
                return parser.getIntValue();
            }
            return (Integer) context.handleUnexpectedToken(Integer.class, parser);
        }
    }

    private static final class Decimal extends StdScalarDeserializer<Double> {
        Decimal() {
            super(Double.class);
        }

        @Override
        public Double deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken().isNumeric()) {
                return parser.getDoubleValue();
            }
            return (Double) context.handleUnexpectedToken(Double.class, parser);
        }
    }

    /** An ISO-8601 instant with its offset, such as 2026-12-01T00:00:00Z or 2026-12-01T01:00:00+01:00. */
    private static final class Moment extends StdScalarDeserializer<Instant> {
        Moment() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (!parser.hasToken(JsonToken.VALUE_STRING)) {
                return (Instant) context.handleUnexpectedToken(Instant.class, parser);
            }
            try {
                return OffsetDateTime.parse(parser.getText()).toInstant();
            } catch (DateTimeParseException e) {
                return (Instant) context.handleWeirdStringValue(Instant.class, parser.getText(), "not an ISO-8601 instant");
            }
        }
    }
}
