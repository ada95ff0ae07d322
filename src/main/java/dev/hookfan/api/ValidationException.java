package dev.hookfan.api;

import java.util.List;

/** A request whose fields break the contract; the problem names each field. */
public class ValidationException extends ApiException {

    public ValidationException(List<Problem.FieldError> errors) {
        super(Problem.invalid(errors));
    }

    public static ValidationException of(String field, String message) {
        return new ValidationException(List.of(new Problem.FieldError(field, message)));
    }
}
