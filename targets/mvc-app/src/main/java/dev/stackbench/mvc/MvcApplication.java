package dev.stackbench.mvc;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Spring MVC on Tomcat. The Spring profile picks the variant: mvc-jdbc, mvc-virtual-threads or mvc-webclient. */
@SpringBootApplication
public class MvcApplication {

    public static void main(String[] args) {
        SpringApplication.run(MvcApplication.class, args);
    }
}
