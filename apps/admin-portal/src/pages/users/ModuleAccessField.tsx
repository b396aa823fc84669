import { Paper, Radio, Table, Text } from '@mantine/core';
import type { AdminModule, Principal } from '../../api';
import classes from './ModuleAccessField.module.css';
import { MODULES, grantableAccess, type Access, type ModuleAccess } from './modules';

const LEVELS: Array<{ value: Access; label: string }> = [
  { value: 'none', label: 'No access' },
  { value: 'read', label: 'Read' },
  { value: 'write', label: 'Read and write' },
];

/**
 * Module permissions as a grid: one radio group per module (named by the module), so each choice is a
 * labelled control a keyboard reaches with Tab and the arrow keys. Levels the actor cannot grant are
 * disabled unless the user already has them (keeping or removing one is always allowed).
 */
export function ModuleAccessField(props: {
  value: ModuleAccess;
  initial: ModuleAccess;
  actor: Principal;
  onChange: (value: ModuleAccess) => void;
  disabled?: boolean;
  role: string;
}) {
  const rank = { none: 0, read: 1, write: 2 } as const;
  const allowed = (module: AdminModule, level: Access) =>
    rank[level] <= rank[grantableAccess(props.actor, module)] || rank[level] <= rank[props.initial[module]];

  return (
    <div role="group" aria-labelledby="modules-label">
      <Text size="sm" fw={600} id="modules-label">
        Module permissions
      </Text>
      <Text size="xs" c="dimmed" mb="xs">
        {props.role === 'admin'
          ? 'An admin may do everything; modules matter for the other roles.'
          : 'Read lets the user open the module’s pages; write lets it change things there.'}
      </Text>
      <Paper withBorder radius="md">
        <Table verticalSpacing={6} data-testid="module-access">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Module</Table.Th>
              {LEVELS.map((level) => (
                <Table.Th key={level.value} ta="center">
                  {level.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {MODULES.map(({ module, label }) => (
              <Table.Tr key={module} role="radiogroup" aria-label={label}>
                <Table.Td>{label}</Table.Td>
                {LEVELS.map((level) => (
                  <Table.Td key={level.value}>
                    <Radio
                      className={classes.cell}
                      name={`module-${module}`}
                      value={level.value}
                      checked={props.value[module] === level.value}
                      onChange={() => props.onChange({ ...props.value, [module]: level.value })}
                      disabled={props.disabled || !allowed(module, level.value)}
                      aria-label={`${label}: ${level.label}`}
                    />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </div>
  );
}
