package dev.stackbench.delay;

import dev.stackbench.targets.common.HostCpuMeter;
import dev.stackbench.targets.common.NettyExit;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class DelayServiceApplication {

    public static void main(String[] args) {
        NettyExit.withoutQuietPeriod();
        SpringApplication.run(DelayServiceApplication.class, args);
    }

    /**
     * The machine's CPU ticks on /actuator/prometheus: a cluster run takes from them the share of the backend node's
     * CPU time its hypervisor took, as it does from the target's for the target's node.
     */
    @Bean
    HostCpuMeter hostCpu() {
        return new HostCpuMeter();
    }
}
