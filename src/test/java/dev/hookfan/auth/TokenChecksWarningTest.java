package dev.hookfan.auth;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenChecksWarningTest {

    @Test
    void should_warn_when_the_issuer_or_the_audience_of_tokens_is_not_checked() {
        assertEquals(List.of(), TokenChecksWarning.unchecked(true, Optional.of("https://auth.example.com"), Optional.of(List.of("hookfan"))));
        List<String> neither = TokenChecksWarning.unchecked(true, Optional.empty(), Optional.empty());
        assertEquals(2, neither.size(), neither.toString());
        assertTrue(neither.get(0).contains("mp.jwt.verify.issuer") && neither.get(1).contains("mp.jwt.verify.audiences"), neither.toString());
        assertEquals(1, TokenChecksWarning.unchecked(true, Optional.of(" "), Optional.of(List.of("hookfan"))).size());
        assertTrue(TokenChecksWarning.unchecked(false, Optional.empty(), Optional.empty()).get(0).contains("without a token"));
    }
}
