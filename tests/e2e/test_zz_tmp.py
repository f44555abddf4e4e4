def test_shot(person, server) -> None:
    for dev in ("desktop", "phone390"):
        q = person(server.url, dev, "de")
        q.start_game(mode="local", rules="quads")
        q.page.wait_for_timeout(500)
        q.page.screenshot(path=f"/tmp/first-{dev}.png")
        q.start_game(mode="computer", rules="quads", level=1)
        q.page.wait_for_timeout(1500)
        q.page.screenshot(path=f"/tmp/firstc-{dev}.png")
