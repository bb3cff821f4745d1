package dev.stackbench.delay;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.stereotype.Component;

/** /actuator/info: the versions a benchmark result must record to be reproducible. */
@Component
class VersionInfoContributor implements InfoContributor {

    @Override
    public void contribute(Info.Builder builder) {
        builder.withDetail("app", "delay-service")
                .withDetail("javaVersion", Runtime.version().toString())
                .withDetail("springBootVersion", SpringBootVersion.getVersion());
    }
}
