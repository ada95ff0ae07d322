package dev.hookfan.text;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TruncateTest {

    @Test
    void should_keep_a_text_that_fits_and_null_as_they_are() {
        assertEquals("x".repeat(1000), Truncate.toLength("x".repeat(1000), 1000));
        assertNull(Truncate.toLength(null, 1000));
    }

    @Test
    void should_cut_a_longer_text_to_the_length_ending_in_an_ellipsis() {
        assertEquals("x".repeat(999) + "…", Truncate.toLength("x".repeat(1001), 1000));
    }
}
