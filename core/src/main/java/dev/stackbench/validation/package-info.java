/**
 * Local-mode admission: {@link dev.stackbench.validation.SpecValidator} refuses what the API server refuses with the
 * CRD's schema and CEL rules, with messages of the same meaning, and also unknown variants.
 */
package dev.stackbench.validation;
