package dev.stackbench.targets.common;

/** The body of every error answer: what was wrong and what to send instead, plus the HTTP status. */
public record ApiError(String error, int status) {}
