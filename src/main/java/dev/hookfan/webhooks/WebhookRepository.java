package dev.hookfan.webhooks;

import dev.hookfan.api.Cursor;
import dev.hookfan.api.NotFound;
import dev.hookfan.api.OrganizationIds;
import dev.hookfan.api.ResourceIds;
import io.quarkus.panache.common.Parameters;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

@ApplicationScoped
public class WebhookRepository implements PanacheRepositoryBase<Webhook, String> {

    /** The webhook, or a 404 that says the same whether it is missing or another organization's. */
    public Uni<Webhook> owned(String organizationId, String id) {
        OrganizationIds.require(organizationId);
        if (!ResourceIds.wellFormed(id)) {
            return Uni.createFrom().failure(NotFound.webhook());
        }
        return findOwned(organizationId, id).onItem().ifNull().failWith(NotFound::webhook);
    }

    /** Null when the webhook does not exist or belongs to another organization. */
    public Uni<Webhook> findOwned(String organizationId, String id) {
        return find("id = ?1 and organizationId = ?2", id, organizationId).firstResult();
    }

    public Uni<List<Webhook>> page(String organizationId, Cursor after, int limit) {
        if (after == null) {
            return find("organizationId = ?1 order by createdAt, id", organizationId).page(0, limit + 1).list();
        }
        return find("organizationId = :org and " + Cursor.after("createdAt") + " order by createdAt, id",
                Parameters.with("org", organizationId).and("at", after.createdAt()).and("id", after.id()))
                .page(0, limit + 1).list();
    }

    public Uni<Long> countOf(String organizationId) {
        return count("organizationId", organizationId);
    }

    /**
     * Serialises webhook creation per organization for the rest of the transaction, so the limit holds. The one native
     * statement on the session: an advisory lock has no HQL form, and it must hold in the session's transaction.
     */
    public Uni<Void> lockOrganization(String organizationId) {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("select 1 from pg_advisory_xact_lock(hashtext(?1))")
                .setParameter(1, "webhook-limit:" + organizationId)
                .getSingleResult()
                .replaceWithVoid());
    }
}
