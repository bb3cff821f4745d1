package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ActuatorInfoTest {

    @Test
    void findsVersionsWhereverTheAppPutsThem() {
        ActuatorInfo info = ActuatorInfo.parse("""
                {"stackbench": {"variant": "mvc-jdbc", "springBootVersion": "4.1.2"},
                 "java": {"version": "25.0.1", "vendor": {"name": "Eclipse Adoptium"}}}
                """);

        assertThat(info).isEqualTo(new ActuatorInfo("mvc-jdbc", "25.0.1", "4.1.2"));
    }

    @Test
    void unreadableInfoGivesNoVersionsRatherThanFailingTheRun() {
        assertThat(ActuatorInfo.parse("not json")).isEqualTo(new ActuatorInfo(null, null, null));
    }
}
