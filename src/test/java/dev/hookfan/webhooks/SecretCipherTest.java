package dev.hookfan.webhooks;

import org.junit.jupiter.api.Test;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecretCipherTest {

    static final String OLD_KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    static final String NEW_KEY = Base64.getEncoder().encodeToString("fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII));
    static final String WEBHOOK = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    static final String OTHER_WEBHOOK = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    static SecretCipher cipher(String key, String previous) {
        return new SecretCipher(new SecretsConfig() {
            @Override
            public Optional<String> encryptionKey() {
                return Optional.ofNullable(key);
            }

            @Override
            public Optional<String> previousEncryptionKey() {
                return Optional.ofNullable(previous);
            }
        });
    }

    /** The format the service wrote before secrets were bound to their webhook: enc:v1:, no associated data. */
    static String sealedTheOldWay(String key, String secret) throws Exception {
        byte[] iv = new byte[12];
        Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(Base64.getDecoder().decode(key), "AES"), new GCMParameterSpec(128, iv));
        byte[] sealed = aes.doFinal(secret.getBytes(StandardCharsets.UTF_8));
        return "enc:v1:" + Base64.getEncoder().encodeToString(ByteBuffer.allocate(12 + sealed.length).put(iv).put(sealed).array());
    }

    @Test
    void should_open_a_secret_only_for_the_webhook_it_was_sealed_for() {
        SecretCipher cipher = cipher(NEW_KEY, null);
        String sealed = cipher.seal(WEBHOOK, SECRET);
        assertTrue(sealed.startsWith("enc:v2:") && !sealed.contains(SECRET.substring(6)), sealed);
        assertEquals(SECRET, cipher.open(WEBHOOK, sealed));
        // A row copied onto another webhook does not sign for it.
        assertThrows(IllegalStateException.class, () -> cipher.open(OTHER_WEBHOOK, sealed));
    }

    @Test
    void should_keep_opening_what_the_previous_key_sealed_during_a_rotation() {
        String sealedWithOld = cipher(OLD_KEY, null).seal(WEBHOOK, SECRET);
        assertEquals(SECRET, cipher(NEW_KEY, OLD_KEY).open(WEBHOOK, sealedWithOld));
        IllegalStateException unknown = assertThrows(IllegalStateException.class, () -> cipher(NEW_KEY, null).open(WEBHOOK, sealedWithOld));
        assertTrue(unknown.getMessage().contains("previous-encryption-key"), unknown.getMessage());
        String sealedWithNew = cipher(NEW_KEY, OLD_KEY).seal(WEBHOOK, SECRET);
        assertNotEquals(sealedWithOld.substring(0, 16), sealedWithNew.substring(0, 16), "the key id tells the keys apart");
    }

    @Test
    void should_still_open_secrets_stored_before_they_were_bound_to_their_webhook_and_plain_ones() throws Exception {
        String v1 = sealedTheOldWay(OLD_KEY, SECRET);
        assertEquals(SECRET, cipher(OLD_KEY, null).open(WEBHOOK, v1));
        assertEquals(SECRET, cipher(NEW_KEY, OLD_KEY).open(WEBHOOK, v1));
        assertThrows(IllegalStateException.class, () -> cipher(NEW_KEY, null).open(WEBHOOK, v1));
        assertEquals(SECRET, cipher(NEW_KEY, null).open(WEBHOOK, SECRET));
        assertEquals(SECRET, cipher(null, null).seal(WEBHOOK, SECRET));
    }

    @Test
    void should_refuse_a_previous_key_without_a_current_one() {
        assertThrows(IllegalArgumentException.class, () -> cipher(null, OLD_KEY));
    }
}
