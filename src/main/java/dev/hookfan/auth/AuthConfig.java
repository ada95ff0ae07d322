package dev.hookfan.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "hookfan.auth")
public interface AuthConfig {

    /** Every /organizations/** call needs a bearer JWT (verified by the mp.jwt.verify.* properties). */
    @WithDefault("true")
    boolean enabled();

    /** The claim listing the organizations a token may act on: a string or an array of strings. */
    @WithDefault("org_id")
    String organizationClaim();

    /** The role (a value of the token's groups claim) that the operator API (/admin/**) requires. */
    @WithDefault("hookfan-admin")
    String adminRole();
}
