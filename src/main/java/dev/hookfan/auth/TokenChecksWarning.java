package dev.hookfan.auth;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Optional;

/** Says at start-up when tokens are accepted from any issuer or for any audience: both are easy to leave off by mistake. */
@Singleton
class TokenChecksWarning {

    private static final Logger LOG = Logger.getLogger(TokenChecksWarning.class);

    void warn(@Observes StartupEvent event, AuthConfig auth,
              @ConfigProperty(name = "mp.jwt.verify.issuer") Optional<String> issuer,
              @ConfigProperty(name = "mp.jwt.verify.audiences") Optional<List<String>> audiences) {
        for (String unchecked : unchecked(auth.enabled(), issuer, audiences)) {
            LOG.warn(unchecked);
        }
    }

    static List<String> unchecked(boolean authEnabled, Optional<String> issuer, Optional<List<String>> audiences) {
        if (!authEnabled) {
            return List.of("hookfan.auth.enabled=false: the organization API takes calls without a token");
        }
        List<String> warnings = new java.util.ArrayList<>();
        if (issuer.filter(text -> !text.isBlank()).isEmpty()) {
            warnings.add("mp.jwt.verify.issuer is not set: tokens of any issuer signed with the configured key are accepted");
        }
        if (audiences.filter(list -> !list.isEmpty()).isEmpty()) {
            warnings.add("mp.jwt.verify.audiences is not set: tokens minted for any audience are accepted");
        }
        return warnings;
    }
}
