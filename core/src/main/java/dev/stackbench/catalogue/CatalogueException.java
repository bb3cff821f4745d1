package dev.stackbench.catalogue;

/** The variant catalogue is missing, inconsistent, or does not know a name; the message says what to do. */
public class CatalogueException extends RuntimeException {

    public CatalogueException(String message) {
        super(message);
    }

    public CatalogueException(String message, Throwable cause) {
        super(message, cause);
    }
}
