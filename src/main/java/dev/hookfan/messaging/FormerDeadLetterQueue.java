package dev.hookfan.messaging;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.ShutdownSignalException;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The quorum DLQ of earlier releases, emptied into the classic one: at start and before every look or redrive, so
 * letters an instance of the old release writes during a rolling upgrade are moved too. It is left empty, not deleted:
 * a quorum queue cannot be deleted only-if-empty, and a letter routed to it just before a delete would be lost.
 * A move that fails does not fail the look or redrive that asked for it: the letters wait in the former queue. One instance moves at a time
 * (an exclusive queue is the lock), in order; each batch is confirmed into the DLQ before it is acknowledged, so a
 * crash in between leaves duplicates in the DLQ, never a loss.
 */
@Singleton
class FormerDeadLetterQueue {

    private static final Logger LOG = Logger.getLogger(FormerDeadLetterQueue.class);
    static final int BATCH = 256;
    static final Duration RETRY_PAUSE = Duration.ofMinutes(1);

    private final MessagingConfig config;
    private volatile long retryAfter = System.nanoTime();

    FormerDeadLetterQueue(MessagingConfig config) {
        this.config = config;
    }

    /**
     * Blocking. How many letters it moved: 0 when there is no former queue, no DLQ to move into yet, another instance
     * is moving, or a move failed less than a minute ago (a failed batch goes back to the quorum queue, which counts a
     * delivery of each letter, so it is not retried at every look).
     */
    int emptyInto(Connection connection) throws Exception {
        String former = config.formerDeadLetterQueue();
        if (former.equals(config.deadLetterQueue()) || System.nanoTime() < retryAfter
                || !exists(connection, former) || !exists(connection, config.deadLetterQueue())) {
            return 0;
        }
        Channel lock = connection.createChannel();
        try {
            lock.queueDeclare(former + ".moving", false, true, true, null);
        } catch (IOException refused) {
            if (refusedWith(refused, AMQP.RESOURCE_LOCKED)) {
                return 0;
            }
            throw refused;
        }
        try (Channel channel = connection.createChannel()) {
            int moved = move(channel, former);
            if (moved > 0) {
                LOG.infof("Moved %d dead letters from the former dead-letter queue %s into %s; delete %s once no instance"
                        + " of an earlier release runs", moved, former, config.deadLetterQueue(), former);
            }
            return moved;
        } catch (Exception failed) {
            retryAfter = System.nanoTime() + RETRY_PAUSE.toNanos();
            throw failed;
        } finally {
            if (lock.isOpen()) {
                lock.queueDelete(former + ".moving");
                lock.close();
            }
        }
    }

    private int move(Channel channel, String former) throws Exception {
        channel.confirmSelect();
        AtomicBoolean returned = new AtomicBoolean();
        channel.addReturnListener(back -> returned.set(true));
        int moved = 0;
        while (true) {
            long last = -1;
            GetResponse message;
            for (int taken = 0; taken < BATCH && (message = channel.basicGet(former, false)) != null; taken++) {
                channel.basicPublish("", config.deadLetterQueue(), true, kept(message.getProps()), message.getBody());
                last = message.getEnvelope().getDeliveryTag();
                moved++;
            }
            if (last < 0) {
                return moved;
            }
            channel.waitForConfirmsOrDie(MandatoryPublisher.CONFIRM_TIMEOUT.toMillis());
            if (returned.get()) {
                throw new IllegalStateException("the dead-letter queue " + config.deadLetterQueue()
                        + " did not take the letters of " + former + " (returned); they stay there");
            }
            channel.basicAck(last, true);
        }
    }

    /** As it was dead-lettered; the quorum queue's own redelivery count means nothing in another queue. */
    private static AMQP.BasicProperties kept(AMQP.BasicProperties properties) {
        if (properties.getHeaders() == null || !properties.getHeaders().containsKey("x-delivery-count")) {
            return properties;
        }
        Map<String, Object> headers = new HashMap<>(properties.getHeaders());
        headers.remove("x-delivery-count");
        return properties.builder().headers(headers).build();
    }

    private static boolean refusedWith(IOException refused, int code) {
        return refused.getCause() instanceof ShutdownSignalException signal
                && signal.getReason() instanceof AMQP.Channel.Close close && close.getReplyCode() == code;
    }

    private static boolean exists(Connection connection, String queue) throws Exception {
        Channel probe = connection.createChannel();
        try {
            probe.queueDeclarePassive(queue);
            return true;
        } catch (IOException missing) {
            return false;
        } finally {
            if (probe.isOpen()) {
                probe.close();
            }
        }
    }
}
