package dev.stackbench.webflux;

import dev.stackbench.targets.common.NettyExit;
import dev.stackbench.targets.common.VariantCheck;
import dev.stackbench.webflux.coroutines.IoDispatcherSize;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Spring WebFlux on Netty. The Spring profile picks the variant: webflux-r2dbc, webflux-jdbc-blocking,
 * webflux-jdbc-elastic or webflux-coroutines.
 */
@SpringBootApplication
public class WebfluxApplication {

    static final List<String> VARIANTS =
            List.of("webflux-r2dbc", "webflux-jdbc-blocking", "webflux-jdbc-elastic", "webflux-coroutines");

    public static void main(String[] args) {
        NettyExit.withoutQuietPeriod();
        IoDispatcherSize.fromEnvironment();
        SpringApplication application = new SpringApplication(WebfluxApplication.class);
        application.addListeners(new VariantCheck("webflux-app", VARIANTS));
        application.run(args);
    }
}
