package dev.hookfan;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/configuration.md cannot drift from the code: every setting the @ConfigMapping interfaces declare has its row
 * there, with the default @WithDefault gives it, and the doc names no setting the code lacks. @WithDefault is the one
 * place a default is written: application.properties does not repeat one.
 */
class ConfigurationDocTest {

    static final Pattern ROW = Pattern.compile("^\\| `(hookfan\\.[a-z0-9.-]+)` \\| ([^|]*) \\|", Pattern.MULTILINE);

    /** Every setting of the application's mappings, with its default (null when it has none). */
    static Map<String, String> declared() throws IOException, ClassNotFoundException {
        Map<String, String> settings = new TreeMap<>();
        Path classes = Path.of("target/classes");
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = Class.forName(name, false, ConfigurationDocTest.class.getClassLoader());
                ConfigMapping mapping = type.getAnnotation(ConfigMapping.class);
                if (mapping != null) {
                    collect(type, mapping.prefix(), settings);
                }
            }
        }
        return settings;
    }

    private static void collect(Class<?> type, String prefix, Map<String, String> settings) {
        for (Method method : type.getMethods()) {
            if (method.isDefault() || Modifier.isStatic(method.getModifiers()) || method.getParameterCount() > 0) {
                continue;
            }
            WithName named = method.getAnnotation(WithName.class);
            String key = prefix + "." + (named != null ? named.value()
                    : method.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase());
            Class<?> returned = method.getReturnType();
            if (returned.isInterface() && returned.getName().startsWith("dev.hookfan.")) {
                collect(returned, key, settings);
                continue;
            }
            WithDefault value = method.getAnnotation(WithDefault.class);
            settings.put(key, value == null ? null : value.value());
        }
    }

    static Map<String, String> documented() throws IOException {
        Map<String, String> rows = new TreeMap<>();
        Matcher row = ROW.matcher(Files.readString(Path.of("docs/configuration.md")));
        while (row.find()) {
            rows.put(row.group(1), row.group(2).trim());
        }
        return rows;
    }

    @Test
    void every_setting_is_documented_with_its_default_and_the_doc_names_no_other() throws Exception {
        Map<String, String> declared = declared();
        Map<String, String> documented = documented();
        assertTrue(declared.size() > 40, "only " + declared.size() + " settings found under target/classes");
        assertEquals(declared.keySet(), documented.keySet(), "settings in the code vs rows in docs/configuration.md");
        List<String> wrong = new ArrayList<>();
        declared.forEach((key, value) -> {
            if (value != null && !documented.get(key).equals("`" + value + "`")) {
                wrong.add(key + ": the code says `" + value + "`, the doc " + documented.get(key));
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void application_properties_repeats_no_default() throws Exception {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(reader);
        }
        List<String> repeated = new ArrayList<>();
        declared().forEach((key, value) -> {
            if (value != null && properties.containsKey(key)) {
                repeated.add(key + "=" + properties.getProperty(key));
            }
        });
        assertEquals(List.of(), repeated, "defaults belong in @WithDefault alone");
    }
}
