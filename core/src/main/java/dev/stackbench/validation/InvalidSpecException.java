package dev.stackbench.validation;

import java.util.List;
import java.util.stream.Collectors;

/** A spec broke one or more rules; the message lists every violation with its field. */
public class InvalidSpecException extends RuntimeException {

    private final List<Violation> violations;

    public InvalidSpecException(String subject, List<Violation> violations) {
        super(subject + " is not valid:\n"
                + violations.stream().map(violation -> "  - " + violation).collect(Collectors.joining("\n")));
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
