package dev.stackbench.mvc;

import dev.stackbench.targets.common.NettyExit;
import dev.stackbench.targets.common.VariantCheck;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Spring MVC on Tomcat. The Spring profile picks the variant: mvc-jdbc, mvc-virtual-threads or mvc-webclient. */
@SpringBootApplication
public class MvcApplication {

    static final List<String> VARIANTS = List.of("mvc-jdbc", "mvc-virtual-threads", "mvc-webclient");

    public static void main(String[] args) {
        NettyExit.withoutQuietPeriod();
        SpringApplication application = new SpringApplication(MvcApplication.class);
        application.addListeners(new VariantCheck("mvc-app", VARIANTS));
        application.run(args);
    }
}
