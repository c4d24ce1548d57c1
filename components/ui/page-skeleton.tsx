import { Skeleton, TableSkeleton } from "./states";

export function PageSkeleton() {
  return (
    <div className="space-y-6">
      <Skeleton className="h-8 w-64" />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
      <div className="rounded-xl border border-line bg-panel">
        <TableSkeleton rows={10} />
      </div>
    </div>
  );
}
