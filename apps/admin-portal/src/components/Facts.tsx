import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './Facts.module.css';

/** A record's fields as a definition list in a titled card. */
export function Facts({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      <dl className={classes.facts}>{children}</dl>
    </Paper>
  );
}

export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}
