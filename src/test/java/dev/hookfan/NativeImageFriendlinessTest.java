package dev.hookfan;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a native build refuses, caught before one runs: Quarkus initializes application classes at build time, so
 * a static Random (SecureRandom included) would be stored, seeded, in the image heap, which native-image rejects.
 */
class NativeImageFriendlinessTest {

    @Test
    void should_keep_no_random_generator_in_a_static_field() throws Exception {
        Path classes = Path.of("target/classes");
        List<String> offenders = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                checked++;
                for (Field field : type.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers()) && Random.class.isAssignableFrom(field.getType())) {
                        offenders.add(name + "." + field.getName());
                    }
                }
            }
        }
        assertTrue(checked > 50, "only " + checked + " classes found under " + classes);
        assertEquals(List.of(), offenders);
    }
}
