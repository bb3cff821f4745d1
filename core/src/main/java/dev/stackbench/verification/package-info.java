/**
 * Checking, before a run is measured, that its target does the work its scenario asks for: what each scenario's
 * iteration should cost the database and the delay service ({@link dev.stackbench.verification.WorkExpectation}),
 * the small load that counts it ({@link dev.stackbench.verification.VerificationLoad}) and the verdict on the counts
 * ({@link dev.stackbench.verification.VerificationVerdict}).
 */
package dev.stackbench.verification;
