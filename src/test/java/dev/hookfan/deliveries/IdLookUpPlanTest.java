package dev.hookfan.deliveries;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On Hookfan's own connections, a fan-out's existing-id look-up probes the primary key even on a table PostgreSQL has
 * no statistics for yet (a fresh install's first burst, before autovacuum's first analyse): costed as disk seeks, it
 * scanned the whole table, up to 20 ms a batch.
 */
@QuarkusTest
class IdLookUpPlanTest {

    @Inject
    Pool pool;

    @Test
    void should_probe_the_primary_key_for_a_batch_of_ids_on_a_table_never_analysed() {
        String[] ids = IntStream.range(0, 250).mapToObj(i -> "absent" + i).toArray(String[]::new);
        List<String> plan = pool.withConnection(connection -> connection.query("create temp table fresh_delivery"
                        + " (id varchar(32) primary key, webhook_id varchar(32) not null, organization_id varchar(255) not null,"
                        + " event_id varchar(32) not null, status varchar(16) not null, attempts int not null,"
                        + " created_at timestamptz not null)").execute()
                // As many narrow rows as a first burst writes before the planner would turn to the index by itself.
                .chain(() -> connection.query("insert into fresh_delivery select md5(i::text), md5((i % 100)::text),"
                        + " 'org_' || (i % 20), md5((i / 5)::text), 'pending', 0, now() from generate_series(1, 30000) i").execute())
                .chain(() -> connection.preparedQuery("explain select id from fresh_delivery where id = any($1)")
                        .execute(Tuple.of(ids)))
                .map(rows -> {
                    List<String> lines = new ArrayList<>();
                    for (Row row : rows) {
                        lines.add(row.getString(0));
                    }
                    return lines;
                })
                .eventually(() -> connection.query("drop table if exists fresh_delivery").execute()))
                .await().atMost(Duration.ofSeconds(30));

        String text = String.join("\n", plan);
        assertTrue(text.contains("fresh_delivery_pkey"), text);
        assertFalse(text.contains("Seq Scan"), text);
    }
}
