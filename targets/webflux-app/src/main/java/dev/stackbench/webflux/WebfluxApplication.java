package dev.stackbench.webflux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Spring WebFlux on Netty. The Spring profile picks the variant: webflux-r2dbc, webflux-jdbc-blocking or
 * webflux-jdbc-elastic.
 */
@SpringBootApplication
public class WebfluxApplication {

    public static void main(String[] args) {
        SpringApplication.run(WebfluxApplication.class, args);
    }
}
