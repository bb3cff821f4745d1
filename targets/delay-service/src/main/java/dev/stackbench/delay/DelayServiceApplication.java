package dev.stackbench.delay;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class DelayServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(DelayServiceApplication.class, args);
    }
}
