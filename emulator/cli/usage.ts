/**
 * Usage errors (an unknown command or option, a value missing or unreadable) exit 2, the harness's
 * "could not run": a script tells a mistyped command from a refusal (1) the same way with both
 * programs. Help and version exit 0.
 *
 * A required option is checked after the unknown ones (commander checks it first), so `seed --scan 7`
 * hears "did you mean --scans?" rather than that --scans is missing.
 *
 * An unknown command that begins exactly one command's name is taken for a shortening of it:
 * `stat` suggests `status`, where commander's nearest spelling would be `start`.
 */
import type { Command } from 'commander';

export const USAGE_EXIT = 2;

/** Applies both rules to `command` and every command under it, which also write their errors as it does; returns it. */
export function usageRules(command: Command): Command {
  command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT));
  const required = command.options.filter((option) => option.mandatory);
  for (const option of required) option.makeOptionMandatory(false);
  if (required.length > 0) {
    command.hook('preAction', () => {
      const missing = required.find((option) => command.getOptionValue(option.attributeName()) === undefined);
      if (missing) command.error(`required option '${missing.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
    });
  }
  if (command.commands.length > 0) command.on('command:*', ([typed]: string[]) => unknownCommand(command, typed!));
  for (const subcommand of command.commands) usageRules(subcommand.configureOutput(command.configureOutput()));
  return command;
}

function unknownCommand(command: Command, typed: string): void {
  const shortened = command.createHelp().visibleCommands(command).map((each) => each.name()).filter((name) => name.startsWith(typed));
  if (shortened.length === 1) command.error(`unknown command '${typed}'\n(Did you mean ${shortened[0]}?)`, { code: 'commander.unknownCommand' });
  // Otherwise commander's own answer, with its nearest spelling (a method it keeps for itself).
  (command as unknown as { unknownCommand(): void }).unknownCommand();
}
