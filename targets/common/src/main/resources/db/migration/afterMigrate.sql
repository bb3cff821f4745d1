-- Runs after every migration. With STACKBENCH_RESET_DATABASE=true (the operator sets it on every run's target)
-- the orders written by earlier runs are removed, so each run starts from the same data: the 10,000 seeded
-- items and no orders. Items are never touched. Off by default, so a developer's database is left alone.
do $$
begin
    if lower('${stackbench_reset_database}') = 'true' then
        truncate table order_lines, orders restart identity;
    end if;
end
$$;
