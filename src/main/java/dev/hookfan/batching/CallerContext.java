package dev.hookfan.batching;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/** Hands a result back on the Vert.x context of whoever waits for it, whichever thread produced it. */
public final class CallerContext {

    private CallerContext() {
    }

    /** The work's item or failure, delivered on the context the subscriber was on when it subscribed. */
    public static <T> Uni<T> resumeOn(Uni<T> work) {
        return Uni.createFrom().emitter(done -> {
            Context context = Vertx.currentContext();
            work.subscribe().with(
                    item -> run(context, () -> done.complete(item)),
                    failure -> run(context, () -> done.fail(failure)));
        });
    }

    /** The submitter goes on where it was: a Hibernate Reactive session, for one, belongs to its Vert.x context. */
    static void run(Context context, Runnable action) {
        if (context == null || context == Vertx.currentContext()) {
            action.run();
        } else {
            context.runOnContext(ignored -> action.run());
        }
    }
}
