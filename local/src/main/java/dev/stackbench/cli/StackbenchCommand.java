package dev.stackbench.cli;

import dev.stackbench.local.BuildInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The stackbench command line: local runs of BenchmarkRun files. The operator has its own entry point and image. */
@Command(
        name = "stackbench",
        mixinStandardHelpOptions = true,
        versionProvider = StackbenchCommand.Version.class,
        description = "Fair, repeatable load experiments comparing server stacks.",
        subcommands = {
            RunCommand.class,
            VerifyCommand.class,
            ReportCommand.class,
            CompareCommand.class,
            ScriptCommand.class,
            CommandLine.HelpCommand.class
        })
public final class StackbenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, also used by tests to run the CLI in-process. */
    public static CommandLine commandLine() {
        return new CommandLine(new StackbenchCommand())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
                    commandLine.getErr().println("stackbench: " + exception.getMessage());
                    return ExitCodes.RUN_FAILED;
                });
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "name a subcommand, e.g. stackbench run examples/demo/*.yaml (see stackbench --help)");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"stackbench " + BuildInfo.current().describe()};
        }
    }
}
