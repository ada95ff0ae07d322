package dev.hookfan.sending;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SignaturesTest {

    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void should_match_the_standard_webhooks_test_vector() {
        assertEquals("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
                Signatures.sign(SECRET, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}"));
    }

    @Test
    void should_sign_with_every_secret_newest_first_in_one_header() {
        String older = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
        String header = Signatures.header(List.of(SECRET, older), "msg_1", 1614265330, "{}");
        String[] signatures = header.split(" ");
        assertEquals(2, signatures.length);
        assertEquals(Signatures.sign(SECRET, "msg_1", 1614265330, "{}"), signatures[0]);
        assertEquals(Signatures.sign(older, "msg_1", 1614265330, "{}"), signatures[1]);
    }
}
