-- Schema and seed data shared by every variant. Written to be harmless when run again on a database that already
-- has it (a reused benchmark database without Flyway history), and fast: one set-based insert for the items.
create table if not exists items (
    id          bigint primary key,
    name        text    not null,
    price_cents integer not null
);

create table if not exists orders (
    id         bigserial primary key,
    status     text        not null check (status in ('NEW', 'PAID', 'SHIPPED', 'CANCELLED')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

create table if not exists order_lines (
    id          bigserial primary key,
    order_id    bigint  not null references orders (id),
    item_id     bigint  not null references items (id),
    quantity    integer not null check (quantity between 1 and 1000),
    price_cents integer not null
);

create index if not exists order_lines_order_id on order_lines (order_id);

insert into items (id, name, price_cents)
select i, 'item-' || i, 100 + (i * 23) % 9900
from generate_series(1, 10000) as i
on conflict (id) do nothing;
