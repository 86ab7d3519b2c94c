-- wrk sends this POST on every connection; only globals are set (no request() function), so wrk
-- keeps its pre-built request and spends no Lua per request. The body is bench/body.json.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]}'
