package dev.hookfan.api;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/** Keyset cursor over (created_at, id): stable under inserts, no duplicates or gaps between pages. */
public record Cursor(Instant createdAt, String id) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;

    /**
     * The HQL condition for rows after this cursor, on the given instant field and {@code id}, with parameters
     * {@code :at} and {@code :id}. Its first part bounds the index scan; PostgreSQL does not derive it from the rest.
     */
    public static String after(String instantField) {
        return instantField + " >= :at and (" + instantField + " > :at or (" + instantField + " = :at and id > :id))";
    }

    public String encode() {
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, createdAt);
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((micros + ":" + id).getBytes(StandardCharsets.UTF_8));
    }

    /** Decodes the {@code after} query parameter; null means the first page. */
    public static Cursor decode(String after) {
        if (after == null || after.isEmpty()) {
            return null;
        }
        try {
            String text = new String(Base64.getUrlDecoder().decode(after), StandardCharsets.UTF_8);
            int colon = text.indexOf(':');
            long micros = Long.parseLong(text.substring(0, colon));
            String id = text.substring(colon + 1);
            if (id.isEmpty() || id.length() > 64) {
                throw new IllegalArgumentException();
            }
            return new Cursor(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), id);
        } catch (RuntimeException e) {
            throw ValidationException.of("after", "is not a cursor returned by this API");
        }
    }

    public static int limit(Integer limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ValidationException.of("limit", "must be between 1 and " + MAX_LIMIT);
        }
        return limit;
    }

    /** Builds a page from up to limit + 1 rows: the extra row only says that there is a next page. */
    public static <R, T> Page<T> page(List<R> rows, int limit, Function<R, Cursor> cursorOf, Function<R, T> view) {
        boolean more = rows.size() > limit;
        List<R> shown = more ? rows.subList(0, limit) : rows;
        String next = more ? cursorOf.apply(shown.get(shown.size() - 1)).encode() : null;
        return new Page<>(shown.stream().map(view).toList(), next);
    }

    /** Timestamps keep microseconds, as PostgreSQL does, so a cursor matches its row exactly. */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
