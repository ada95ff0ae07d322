package dev.hookfan.webhooks;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Once a key is set, seals again every stored secret that is not sealed with it the current way (plain, enc:v1, or the
 * previous key's), in small batches at start-up, so a key rotation finishes and the previous key can be dropped.
 * Each row is replaced only if it still holds what was read, so instances doing this at once, or a rotation meanwhile,
 * lose nothing.
 */
@Singleton
class SecretResealer {

    private static final Logger LOG = Logger.getLogger(SecretResealer.class);
    private static final int BATCH = 100;
    static final String OUTDATED = "select id, webhook_id, secret from webhook_secret where secret not like $1 and id > $2"
            + " order by id limit " + BATCH;
    static final String RESEAL = "update webhook_secret set secret = $2 where id = $1 and secret = $3";

    private final Pool pool;
    private final SecretCipher cipher;

    SecretResealer(Pool pool, SecretCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    void start(@Observes StartupEvent event) {
        resealAll().subscribe().with(
                resealed -> {
                    if (resealed > 0) {
                        LOG.infof("Sealed %d stored webhook secrets again with the current key", resealed);
                    }
                },
                failure -> LOG.warnf("Stored webhook secrets not all sealed again with the current key (next start tries"
                        + " again): %s", failure.toString()));
    }

    /** Answers how many secrets it sealed again; none without a key. */
    Uni<Integer> resealAll() {
        return cipher.currentPattern().map(pattern -> batchAfter(pattern, 0L, 0)).orElse(Uni.createFrom().item(0));
    }

    /** Secrets after this id, batch by batch; answers how many were sealed again in all. */
    private Uni<Integer> batchAfter(String pattern, long after, int sealedSoFar) {
        return pool.preparedQuery(OUTDATED).execute(Tuple.of(pattern, after)).chain(rows -> {
            if (rows.size() == 0) {
                return Uni.createFrom().item(sealedSoFar);
            }
            long last = 0;
            Tuple[] updates = new Tuple[rows.size()];
            int count = 0;
            for (Row row : rows) {
                last = row.getLong("id");
                String stored = row.getString("secret");
                try {
                    String webhookId = row.getString("webhook_id");
                    updates[count] = Tuple.of(last, cipher.seal(webhookId, cipher.open(webhookId, stored)), stored);
                    count++;
                } catch (IllegalStateException unreadable) {
                    LOG.warnf("Webhook secret %d of webhook %s: %s", last, row.getString("webhook_id"), unreadable.getMessage());
                }
            }
            long next = last;
            int sealed = count;
            Uni<?> written = count == 0 ? Uni.createFrom().voidItem()
                    : pool.preparedQuery(RESEAL).executeBatch(java.util.Arrays.asList(updates).subList(0, count));
            return written.chain(() -> batchAfter(pattern, next, sealedSoFar + sealed));
        });
    }
}
