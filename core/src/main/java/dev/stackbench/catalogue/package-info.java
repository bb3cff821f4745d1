/**
 * The variant catalogue (targets/variants.yaml): which app and Spring profile implement a variant, the size of its
 * request thread pool, the scenarios on which that pool is the limit, and the Little's-law caps that follow.
 */
package dev.stackbench.catalogue;
