package dev.hookfan.deadletters;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookfan.api.Cursor;
import dev.hookfan.api.Problem;
import dev.hookfan.api.RequestBodies;
import dev.hookfan.api.ValidationException;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Map;

/** The operator API on the dead-letter queue: a token with the admin role (see AdminAccessFilter). */
@Path("/admin/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Operators", description = "Dead letters, for operators (a token with hookfan.auth.admin-role)")
@APIResponse(responseCode = "401", description = "No valid bearer token",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "403", description = "The token lacks the admin role",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class DeadLetterResource {

    static final int MAX_LIMIT = 1000;

    private final DeadLetterQueue queue;
    private final RequestBodies bodies;

    DeadLetterResource(DeadLetterQueue queue, RequestBodies bodies) {
        this.queue = queue;
        this.bodies = bodies;
    }

    @GET
    @Operation(summary = "The first dead letters in queue order, left in the queue")
    public Uni<Map<String, Object>> list(@QueryParam("limit") Integer limit) {
        int size = limit == null ? Cursor.DEFAULT_LIMIT : limit;
        if (size < 1 || size > MAX_LIMIT) {
            throw ValidationException.of("limit", "must be 1 to " + MAX_LIMIT);
        }
        return queue.peek(size).map(items -> Map.of("items", items));
    }

    @POST
    @Path("redrive")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Move dead letters back to the work queue (confirmed before they leave the dead-letter queue)")
    @RequestBody(content = @Content(schema = @Schema(implementation = RedriveRequest.class)))
    @APIResponse(responseCode = "200", description = "{\"redriven\": N}")
    public Uni<Map<String, Integer>> redrive(JsonNode body) {
        RedriveRequest request = bodies.read(body, RedriveRequest.class, RedriveRequest.BODY, read -> read.problems(body));
        return queue.redrive(request.choice()).map(moved -> Map.of("redriven", moved));
    }
}
