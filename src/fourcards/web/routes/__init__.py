"""The web app's routers, one per resource: lobby, tables (seats, views, moves), the host's
controls, histories, the live websocket, pages and the payout checker."""
