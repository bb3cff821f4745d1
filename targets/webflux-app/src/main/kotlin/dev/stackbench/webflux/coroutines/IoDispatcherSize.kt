package dev.stackbench.webflux.coroutines

/**
 * The number of Dispatchers.IO threads, from `COROUTINES_IO_PARALLELISM` (the catalogue's sizeEnv of
 * webflux-coroutines). kotlinx.coroutines reads the system property `kotlinx.coroutines.io.parallelism` once, when
 * Dispatchers.IO is first used, so this runs first in `main`; without the variable the pool keeps its default, 64
 * threads (or one per CPU beyond 64).
 */
object IoDispatcherSize {

    const val ENV = "COROUTINES_IO_PARALLELISM"
    const val PROPERTY = "kotlinx.coroutines.io.parallelism"

    @JvmStatic
    fun fromEnvironment() {
        val value = System.getenv(ENV) ?: return
        val threads = value.trim().toIntOrNull()
        require(threads != null && threads > 0) {
            "$ENV=$value is not a positive whole number: set it to the number of Dispatchers.IO threads, e.g. $ENV=64"
        }
        System.setProperty(PROPERTY, threads.toString())
    }
}
