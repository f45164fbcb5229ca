/** Shared pieces of the cluster groups' resources (issue 16): table columns and selector printing. */
import { labelSelectorFromMetav1, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import type { TableColumn, TableColumnDefinition } from '@kube/apiserver';
import { NONE } from './table.helpers';

/** A printed column (pkg/printers/internalversion) reading its cell from a typed object. */
export function column<T extends KubeObject>(name: string, type: TableColumnDefinition['type'], description: string, cell: (obj: T) => unknown, priority?: number): TableColumn {
  return { name, type, description, ...(priority ? { priority } : {}), cell: (obj: KubeObject) => cell(obj as T) };
}

/** metav1.FormatLabelSelector: "<none>" for an empty selector, "<error>" for a bad one. */
export function formatLabelSelector(sel: MetaV1LabelSelector | null | undefined): string {
  if (!sel) return NONE;
  try {
    const text = labelSelectorFromMetav1(sel).toString();
    return text === '' ? NONE : text;
  } catch {
    return '<error>';
  }
}

