package dev.stackbench.local;

import java.util.List;

/**
 * What the user gave cannot run, found before anything starts. Every problem is collected, not just the first, so
 * one attempt shows everything there is to fix.
 */
public final class InvalidInputException extends Exception {

    private final List<String> problems;
    private final String whatToFix;

    /** @param whatToFix where the user fixes the problems, e.g. "the field(s) above" */
    public InvalidInputException(List<String> problems, String whatToFix) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
        this.whatToFix = whatToFix;
    }

    /** One line per problem, naming the file or option and what to change. */
    public List<String> problems() {
        return problems;
    }

    public String whatToFix() {
        return whatToFix;
    }
}
