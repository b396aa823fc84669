import { Select } from '@mantine/core';
import { Fragment } from 'react';
import { apiKeysApi } from '../api';
import { useApi } from './use-api';

/**
 * The dated API version of a key or subscription. An empty value is the deployment's default, shown selected
 * and marked as such (a form sends nothing then, and the service applies the default); the line under it says
 * what each newer version changes.
 */
export function ApiVersionSelect(props: {
  description: string;
  value: string;
  onChange: (version: string) => void;
  maw?: number;
}) {
  const versions = useApi(['api-versions'], apiKeysApi.versions);
  const known = versions.data;
  const defaultVersion = known?.defaultVersion ?? '';
  const newer = (known?.versions ?? []).filter((entry) => entry.version > defaultVersion);
  const changes = newer.map(
    (entry) => `${entry.version}: ${entry.changes.map((change) => change.summary).join('; ')}.`,
  );
  return (
    <Select
      label="API version"
      description={
        <>
          {props.description}
          {changes.map((change) => (
            <Fragment key={change}>
              <br />
              Newer, chosen per key or call: {change}
            </Fragment>
          ))}
        </>
      }
      maw={props.maw}
      data={(known?.versions ?? []).map(({ version }) => ({
        value: version,
        label: version === defaultVersion ? `${version} (default)` : version,
      }))}
      allowDeselect={false}
      value={props.value || defaultVersion || null}
      onChange={(value) => value && props.onChange(value)}
    />
  );
}
