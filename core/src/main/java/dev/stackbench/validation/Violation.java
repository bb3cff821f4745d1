package dev.stackbench.validation;

/**
 * One reason a spec is refused.
 *
 * @param field the path of the offending field, e.g. spec.workload.load.rate or spec.workload.load.stages[0].target
 * @param message what is wrong and what to change
 */
public record Violation(String field, String message) {

    @Override
    public String toString() {
        // Most messages already start with the field they are about; naming it twice reads as noise.
        return message.startsWith(field + " ") || message.startsWith(field + ":") ? message : field + ": " + message;
    }
}
