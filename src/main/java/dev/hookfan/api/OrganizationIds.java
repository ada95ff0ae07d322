package dev.hookfan.api;

import java.util.regex.Pattern;

/** Organization ids come from paths and messages; keep them to a safe, bounded alphabet. */
public final class OrganizationIds {

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}");

    private OrganizationIds() {
    }

    public static String require(String organizationId) {
        if (organizationId == null || !VALID.matcher(organizationId).matches()) {
            throw ValidationException.of("organizationId",
                    "must be 1 to 255 characters of letters, digits, '_', '.', ':' or '-'");
        }
        return organizationId;
    }
}
