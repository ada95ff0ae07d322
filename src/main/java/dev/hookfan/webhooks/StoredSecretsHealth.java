package dev.hookfan.webhooks;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Not ready while the configured keys cannot open the newest stored secrets: a wrong or missing key would otherwise
 * fail every send for days and end with every webhook auto-disabled.
 */
@Readiness
@ApplicationScoped
public class StoredSecretsHealth implements AsyncHealthCheck {

    static final String NEWEST_SEALED = "select webhook_id, secret from webhook_secret where secret like 'enc:%'"
            + " order by id desc limit 20";
    private static final String NAME = "Hookfan webhook secrets";

    private final Pool pool;
    private final SecretCipher cipher;

    StoredSecretsHealth(Pool pool, SecretCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return pool.query(NEWEST_SEALED).execute().map(rows -> {
            int unreadable = 0;
            String problem = null;
            for (Row row : rows) {
                try {
                    cipher.open(row.getString("webhook_id"), row.getString("secret"));
                } catch (IllegalStateException e) {
                    unreadable++;
                    problem = e.getMessage();
                }
            }
            var response = HealthCheckResponse.named(NAME).status(unreadable == 0).withData("sampled", rows.size());
            return (problem == null ? response : response.withData("unreadable", unreadable).withData("problem", problem)).build();
        }).onFailure().recoverWithItem(failure -> HealthCheckResponse.named(NAME).down()
                .withData("problem", "stored secrets could not be read: " + failure.getMessage()).build());
    }
}
