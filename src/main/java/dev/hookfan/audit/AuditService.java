package dev.hookfan.audit;

import dev.hookfan.api.Cursor;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.Page;
import dev.hookfan.api.ValidationException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** An organization's audit log as the API and the portal read it: a page at a time, optionally of one type and since an instant. */
@Singleton
public class AuditService {

    private final AuditLog log;

    AuditService(AuditLog log) {
        this.log = log;
    }

    /** A 400 naming the field for a bad organization id, {@code since}, {@code limit} or {@code after}. */
    public Uni<Page<AuditEntryView>> page(String organizationId, String type, String since, Integer limit, String after) {
        OrganizationIds.require(organizationId);
        int size = Cursor.limit(limit);
        Cursor cursor = Cursor.decode(after);
        Instant from = since == null || since.isEmpty() ? null : instant(since);
        return log.page(organizationId, type == null || type.isEmpty() ? null : type, from, cursor, size + 1)
                .map(rows -> Cursor.page(rows, size, row -> new Cursor(row.recordedAt(), row.id()), row -> row));
    }

    private static Instant instant(String since) {
        try {
            return Instant.parse(since);
        } catch (DateTimeParseException e) {
            throw ValidationException.of("since", "must be an ISO-8601 instant such as 2026-12-02T10:00:00Z");
        }
    }
}
