import { describe, expect, it } from 'vitest';
import { childPath, indexPath, keyPath, reportedPath } from './field-path.format';

describe('field paths', () => {
  it('renders like field.Path', () => {
    expect(childPath(childPath('', 'spec'), 'ports')).toBe('spec.ports');
    expect(indexPath('spec.ports', 0)).toBe('spec.ports[0]');
    expect(keyPath(childPath('openAPIV3Schema', 'properties'), 'spec')).toBe('openAPIV3Schema.properties[spec]');
    expect(keyPath('', 'k')).toBe('[k]');
  });

  it('reports the root as <nil>', () => {
    expect(reportedPath('')).toBe('<nil>');
    expect(reportedPath('spec')).toBe('spec');
  });
});
