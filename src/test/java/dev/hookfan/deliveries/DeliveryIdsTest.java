package dev.hookfan.deliveries;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeliveryIdsTest {

    @Test
    void should_match_the_dotnet_test_vector() {
        assertEquals("c273d69a145424e2e1ca10cda953662d", DeliveryIds.derive("3f2504e0-4f89-11d3-9a0c-0305e82c3301", "wh_1"));
    }

    @Test
    void should_give_the_same_id_for_the_same_message_and_webhook() {
        assertEquals(DeliveryIds.derive("msg-1", "wh_1"), DeliveryIds.derive("msg-1", "wh_1"));
    }

    @Test
    void should_give_different_ids_for_different_messages_or_webhooks() {
        assertNotEquals(DeliveryIds.derive("msg-1", "wh_1"), DeliveryIds.derive("msg-2", "wh_1"));
        assertNotEquals(DeliveryIds.derive("msg-1", "wh_1"), DeliveryIds.derive("msg-1", "wh_2"));
    }

    @Test
    void should_treat_every_spelling_of_one_uuid_as_one_message() {
        String expected = "c273d69a145424e2e1ca10cda953662d";
        assertEquals(expected, DeliveryIds.derive("3F2504E0-4F89-11D3-9A0C-0305E82C3301", "wh_1"));
        assertEquals(expected, DeliveryIds.derive("3f2504e04f8911d39a0c0305e82c3301", "wh_1"));
        assertEquals(expected, DeliveryIds.derive("3F2504E04F8911D39A0C0305E82C3301", "wh_1"));
    }

    @Test
    void should_keep_a_non_uuid_message_id_as_it_is() {
        assertEquals("order-42", DeliveryIds.canonical("order-42"));
        assertNotEquals(DeliveryIds.derive("ORDER-42", "wh_1"), DeliveryIds.derive("order-42", "wh_1"));
    }

    @Test
    void should_draw_a_random_id_of_the_same_shape_without_a_message() {
        String first = DeliveryIds.random();
        assertTrue(first.matches("[0-9a-f]{32}"), first);
        assertNotEquals(first, DeliveryIds.random());
    }
}
