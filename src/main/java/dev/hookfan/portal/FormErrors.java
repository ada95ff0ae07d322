package dev.hookfan.portal;

import dev.hookfan.api.Problem;
import io.quarkus.qute.TemplateData;

import java.util.LinkedHashMap;
import java.util.Map;

/** What the API refused, by the field of the page's forms it concerns; {@code form} for the form as a whole. */
@TemplateData
record FormErrors(String url, String eventTypes, String description, String enabled, String since, String form) {

    static final FormErrors NONE = new FormErrors(null, null, null, null, null, null);

    /** A problem's field errors ("eventTypes[2]" concerns eventTypes); a field the forms do not have goes to the form. */
    static FormErrors of(Problem problem) {
        Map<String, String> byField = new LinkedHashMap<>();
        if (problem.errors() == null || problem.errors().isEmpty()) {
            byField.put("form", problem.detail());
        } else {
            for (Problem.FieldError error : problem.errors()) {
                String field = error.field().split("[\\[.]", 2)[0];
                if (!java.util.Set.of("url", "eventTypes", "description", "enabled", "since").contains(field)) {
                    field = "form";
                }
                byField.merge(field, error.message(), (first, next) -> first + "; " + next);
            }
        }
        return new FormErrors(byField.get("url"), byField.get("eventTypes"), byField.get("description"),
                byField.get("enabled"), byField.get("since"), byField.get("form"));
    }
}
