package dev.hookfan.text;

/** Shortens a text that is stored or sent where its length is bounded; a leaf package, so any feature may use it. */
public final class Truncate {

    private Truncate() {
    }

    /** The text itself if it fits, else its start and an ellipsis, {@code maxLength} characters in all; null stays null. */
    public static String toLength(String text, int maxLength) {
        return text == null || text.length() <= maxLength ? text : text.substring(0, maxLength - 1) + "…";
    }
}
