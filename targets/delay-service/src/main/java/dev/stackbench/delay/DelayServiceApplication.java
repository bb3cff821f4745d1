package dev.stackbench.delay;

import dev.stackbench.targets.common.NettyExit;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class DelayServiceApplication {

    public static void main(String[] args) {
        NettyExit.withoutQuietPeriod();
        SpringApplication.run(DelayServiceApplication.class, args);
    }
}
