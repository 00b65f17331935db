# PhotoDeck: one command for the demo, one for the tests. Each installs the
# Debian packages it needs first (as root on Debian 12).

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

# Libraries the package links, and the reference tools the tests compare with.
BUILD_PACKAGES := pkgconf libdbus-1-dev libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libjxl-dev libheif-dev libde265-dev liblcms2-dev libgif-dev zlib1g-dev libsqlite3-dev libssl-dev libcurl4-openssl-dev libsdl2-dev libsdl2-ttf-dev libx11-dev libchafa-dev libsixel-dev libavformat-dev libavcodec-dev libavfilter-dev libswscale-dev libswresample-dev libavutil-dev fonts-dejavu-core
TEST_PACKAGES := $(BUILD_PACKAGES) ffmpeg stress-ng strace libjpeg-turbo-progs libimage-exiftool-perl webp libheif-examples liblcms2-utils colord-data time python3 fiu-utils util-linux iproute2 xvfb xauth xdotool x11-apps tmux procps xterm kitty mlterm tumbler gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-libav dbus dunst python3-gi libglib2.0-bin
BENCH_PACKAGES := $(TEST_PACKAGES) libjxl-tools ffmpeg libheif-examples libvips-tools imagemagick python3-pil hyperfine libimage-exiftool-perl time curl libsixel-bin chafa ffmpegthumbnailer timg

DEMO_OUT ?= $(CURDIR)/.build/demo

.PHONY: check-map check-portable demo test test-loaded test-release test-asan test-tsan check-docs docs docs-preview check-consumer lint bench-decode bench-metadata bench-fit bench-heif bench-browser bench-viewer bench-thumbnails bench-workers bench-loading bench-terminal bench-hostile bench-placeholders bench-downloads bench-jxl bench-avif bench-smartcrop bench-video bench-transcode bench-playback bench-filters deps-build deps-test deps-bench

define install_missing
	@missing=""; \
	for package in $(1); do \
		dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps-build:
	$(call install_missing,$(BUILD_PACKAGES))

deps-test:
	$(call install_missing,$(TEST_PACKAGES))

deps-bench:
	$(call install_missing,$(BENCH_PACKAGES))

## demo: browse the bundled sample photos with photo-browser (pages, zoom,
## prefetch; a PNG of each screen; the first screen in the terminal), fit them with photo-fit, gather them into
## an album with photo-album, then show what photo-share would send.
demo: deps-build
	@# One product per call: `swift build` keeps only the last --product.
	for product in photo-browser photo-fit photo-album photo-share; do swift build -c release --product $$product || exit 1; done
	.build/release/photo-browser --viewport 390x844 --scale 2 --out "$(DEMO_OUT)/browser" Examples/Samples -- \
		next double-tap 200,400 pan -80,0 next next prev resize 844x390 tap goto 1
	@# The viewer's first screen in ANSI colour blocks (any terminal shows it; --display window opens a window).
	COLUMNS=72 LINES=20 .build/release/photo-browser --display ansi --once Examples/Samples
	@mkdir -p "$(DEMO_OUT)"
	@for photo in Examples/Samples/*.jpg Examples/Samples/*.png Examples/Samples/*.webp Examples/Samples/*.heic Examples/Samples/*.gif; do \
		name=$$(basename "$${photo%.*}"); \
		.build/release/photo-fit --width 640 --height 640 --quality 85 "$$photo" "$(DEMO_OUT)/$$name-fit.jpg" || exit 1; \
		.build/release/photo-fit --width 320 --height 320 --mode fill "$$photo" "$(DEMO_OUT)/$$name-square.webp" || exit 1; \
	done
	.build/release/photo-album --store "$(DEMO_OUT)/album" import --album Samples Examples/Samples
	.build/release/photo-album --store "$(DEMO_OUT)/album" list
	.build/release/photo-album --store "$(DEMO_OUT)/album" check
	.build/release/photo-share targets --dry-run --text "Waterfall" Examples/Samples/waterfall.jpg
	.build/release/photo-share share --to wecom/session --dry-run --text "Waterfall 瀑布" Examples/Samples/waterfall.jpg
	.build/release/photo-share share --to wechat/session --dry-run Examples/Samples/waterfall.jpg
	@echo "demo output: $(DEMO_OUT)"

## test: the whole test suite.
test: deps-test
	swift test --disable-xctest

## test-loaded: the whole suite LOADED_RUNS times (default 3) while
## stress-ng keeps every core busy (one CPU worker per core), so races and
## bounds too tight for a loaded machine fail here, not only on CI. The
## hog is stopped however a run ends.
LOADED_RUNS ?= 3
test-loaded: deps-test
	swift build --build-tests
	@for run in $$(seq 1 $(LOADED_RUNS)); do \
		echo "loaded run $$run of $(LOADED_RUNS): stress-ng --cpu $$(nproc) beside the suite"; \
		stress-ng --cpu "$$(nproc)" --cpu-method int64 --timeout 0 --quiet & hog=$$!; \
		swift test --disable-xctest --skip-build; status=$$?; \
		kill "$$hog" 2>/dev/null; wait "$$hog" 2>/dev/null; \
		[ $$status -eq 0 ] || { echo "loaded run $$run failed"; exit $$status; }; \
	done

## test-release: the whole suite built with -c release, because the optimiser
## exposes what the debug build hides (Documentation/CompilerBugs). The
## libraries and tests are built with -enable-testing (what @testable
## imports need) in .build/release-tests; the executables the tests run
## (the five examples and the test tools) are those `swift build -c release`
## makes, as users build them, named to the tests by PHOTODECK_PRODUCTS.
## Warnings are errors here, as in the sanitizer builds: zero in release
## and in debug.
WARNINGS_AS_ERRORS := -Xswiftc -warnings-as-errors
test-release: deps-test
	swift build -c release
	swift build -c release --build-tests -Xswiftc -enable-testing $(WARNINGS_AS_ERRORS) --build-path .build/release-tests
	PHOTODECK_PRODUCTS="$$(swift build -c release --show-bin-path)" \
		"$$(swift build -c release --build-path .build/release-tests --show-bin-path)/PhotoDeckPackageTests.xctest" --testing-library swift-testing

## test-asan: the whole test suite under AddressSanitizer (C shims included).
## At most ASAN_WIDTH tests run at once (Swift Testing's
## --experimental-maximum-parallelization-width, which `swift test` does not
## pass on, so the test binary is run directly): with all 478 at once on two
## cores, slowed by the sanitizer, a test waited minutes for a turn on Swift's
## thread pool and tests that wait for an event gave up.
ASAN_WIDTH ?= 6
test-asan: deps-test
	swift build --build-tests --sanitize=address $(WARNINGS_AS_ERRORS) --build-path .build/asan
	PHOTODECK_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp \
		"$$(swift build --show-bin-path --sanitize=address --build-path .build/asan)/PhotoDeckPackageTests.xctest" \
		--testing-library swift-testing --experimental-maximum-parallelization-width $(ASAN_WIDTH)

## test-tsan: the concurrency suites under ThreadSanitizer: the image
## workers' lanes and escalation, the loopback server, the browser's session,
## folder and cache, the viewer's updates, grid and animations, the
## thumbnailer, the loader and the disk cache. It fails when a test fails or
## hangs (a deadlock fails within seconds, through `within`) and when TSan
## reports anything: the reports are written to .build/tsan/report.* and
## summarised. Built with -DPHOTODECK_TSAN, SystemSupport's Lock is a
## pthread mutex TSan intercepts (it cannot see Synchronization.Mutex's
## futex on Linux). exitcode=0 keeps the tools the tests run from exiting
## 66 on a report; the summary fails the target instead.
TSAN_SUITES ?= OutboxSchedulingTests|ForMeCacheTests|FiltersTests|WorkerTests|LoopbackHTTPServerTests|PhotoBrowserSessionTests|RenditionCacheTests|FolderPhotosTests|ViewerUpdatesTests|ViewerGridTests|ViewerAnimationTests|ThumbnailCacheTests|LoaderTests|DiskCacheTests
test-tsan: deps-test
	swift build --build-tests --sanitize=thread $(WARNINGS_AS_ERRORS) --build-path .build/tsan -Xswiftc -DPHOTODECK_TSAN
	rm -f .build/tsan/report.*
	PHOTODECK_SANITIZER=thread TSAN_OPTIONS="log_path=$(CURDIR)/.build/tsan/report exitcode=0" \
		"$$(swift build --show-bin-path --sanitize=thread --build-path .build/tsan)/PhotoDeckPackageTests.xctest" \
		--testing-library swift-testing --experimental-maximum-parallelization-width $(ASAN_WIDTH) --filter '$(TSAN_SUITES)'
	/usr/bin/python3 scripts/tsan-summary.py .build/tsan/report.*

## check-map: fails when the module map in README.md or Documentation/PhotoDeck.md
## is not what the manifest and the imports say, when a target declares a
## dependency none of its files imports (scripts/module-map.py --write fixes the map),
## or when a module other than SystemSupport calls the C library's system interface,
## or when a source holds a shape a toolchain is known to miscompile (Documentation/CompilerBugs),
## or calls a Foundation read that traps on EINTR.
check-map: deps-build
	python3 scripts/module-map.py --check
	python3 scripts/check-platform.py --self-test
	python3 scripts/check-platform.py
	python3 scripts/check-miscompiles.py --self-test
	python3 scripts/check-miscompiles.py
	python3 scripts/check-traps.py --self-test
	python3 scripts/check-traps.py

## check-portable: builds the libraries as they are built where Linux's own
## interfaces (V4L2, rtnetlink, inotify) do not exist, so the fallbacks
## (NoCaptureDevices, FixedNetworkMonitor, polling for folder changes) compile.
## Only Linux (Debian 12) is tested; this proves the other branch builds, no more.
check-portable: deps-build
	swift build --build-path .build/portable -Xswiftc -DPHOTODECK_NO_LINUX_APIS --target PhotoAlbum
	swift build --build-path .build/portable -Xswiftc -DPHOTODECK_NO_LINUX_APIS --target ShareKit

## check-docs: fails when a public symbol of a library has no doc comment,
## or when DocC cannot resolve a link (in a doc comment or a landing page).
check-docs: deps-test
	swift build --build-tests >/dev/null
	swift package dump-symbol-graph --minimum-access-level public >/dev/null
	python3 scripts/check-docs.py
	scripts/build-docs.sh

## docs: the DocC documentation of every library module, in one archive
## (.build/docs/PhotoDeck.doccarchive); docs-preview serves it on port 8080.
docs: deps-build
	scripts/build-docs.sh

docs-preview: deps-build
	scripts/build-docs.sh --preview

## check-consumer: builds, tests and runs Tests/Consumer, an app that depends
## on PhotoDeck as the README says, against this checkout (a path dependency
## through a link named PhotoDeck, so the package name matches). It fails if
## that build compiled a benchmark or the fuzz target: they sit in the root
## manifest (they use the package-access floors) but must never reach an app.
check-consumer: deps-build
	@work=$$(mktemp -d) && trap 'rm -rf "$$work"' EXIT && \
	ln -s "$(CURDIR)" "$$work/PhotoDeck" && cp -R Tests/Consumer "$$work/MyApp" && \
	sed -i 's#\.package(url: "https://github.com/<owner>/PhotoDeck.git", branch: "main")#.package(path: "../PhotoDeck")#' "$$work/MyApp/Package.swift" && \
	grep -q 'package(path: "../PhotoDeck")' "$$work/MyApp/Package.swift" && \
	swift build --package-path "$$work/MyApp" && \
	swift test --package-path "$$work/MyApp" --disable-xctest && \
	"$$work/MyApp/.build/debug/MyApp" Examples/Samples/waterfall.jpg Examples/Samples/portrait.webp && \
	for target in $$(ls Benchmarks) photodeck-fuzz; do \
		if [ -e "$$work/MyApp/.build/debug/$$(echo $$target | tr - _).build" ]; then \
			echo "error: a consumer's build compiled $$target (benchmarks and the fuzz target must never reach an app)" >&2; exit 1; \
		fi; \
	done; \
	echo "consumer build: none of $$(ls Benchmarks | wc -l) benchmarks or the fuzz target compiled"

## lint: swift-format with the committed .swift-format configuration.
lint:
	swift format lint --strict --recursive Sources Tests Examples Benchmarks Fuzz

## bench-browser: page turns with and without prefetch, beside vipsthumbnail.
bench-browser: deps-bench
	scripts/bench-browser.sh

## bench-viewer: key press to frame in photo-browser's window (24 MP JPEGs, 1920x1080, Xvfb), opening folders of up to 50,000 photos, and memory and threads while paging 1,000 24 MP photos.
bench-viewer: deps-bench
	swift build -c release --product photo-browser
	/usr/bin/python3 scripts/bench-viewer.py
	/usr/bin/python3 scripts/bench-folder-open.py
	/usr/bin/python3 scripts/bench-paging.py

## bench-thumbnails: thumbnails into the freedesktop cache beside vipsthumbnail, and the grid's first screen on 10,000 photos.
bench-thumbnails: deps-bench
	swift build -c release --product thumbnail-bench
	swift build -c release --product photo-browser
	/usr/bin/python3 scripts/bench-thumbnails.py

## bench-loading: a timeline's thumbnails through ImageLoader (20 ms loopback server) beside curl --parallel + vipsthumbnail.
bench-loading: deps-bench
	/usr/bin/python3 scripts/bench-loading.py

## bench-terminal: one terminal frame's picture in sixel and kitty, straight and through tmux, beside img2sixel and ImageMagick.
bench-terminal: deps-bench
	scripts/bench-terminal.sh

## bench-workers: concurrent renditions on ImageWorkers vs. on the cooperative pool.
bench-workers: deps-bench
	scripts/bench-workers.sh

## bench-decode: decode throughput beside djpeg, dwebp and Pillow.
bench-decode: deps-bench
	scripts/bench-decode.sh

## bench-metadata: metadata stripping and lossless rotation of a phone photo
## beside exiftool, jpegtran, vips and ImageMagick.
bench-metadata: deps-bench
	scripts/bench-metadata.sh

## bench-downloads: progressive previews at 1 Mbit/s and a download cut at 50%, beside curl.
bench-downloads: deps-bench
	/usr/bin/python3 scripts/bench-downloads.py

## bench-transcode: a video prepared for a WeChat chat beside the ffmpeg
## command line with the same settings.
bench-transcode: deps-bench
	/usr/bin/python3 scripts/bench-transcode.py

## bench-filters: 100,000 muted words on 100 posts beside the rule before and grep -F -i -f.
bench-filters: deps-bench
	/usr/bin/python3 scripts/bench-filters.py

## bench-video: poster frames of 100 videos beside ffmpegthumbnailer.
bench-video: deps-bench
	/usr/bin/python3 scripts/bench-video.py

## bench-playback: a video's first frame in the window beside ffplay, dropped frames over 60 s, frames per second in kitty beside timg.
bench-playback: deps-bench
	swift build -c release --product photo-browser
	/usr/bin/python3 scripts/bench-playback.py

## bench-avif: AVIF encoding beside vips heifsave, at equal SSIM.
bench-avif: deps-bench
	/usr/bin/python3 scripts/bench-avif.py

## bench-jxl: JPEG XL decode beside djxl.
bench-jxl: deps-bench
	scripts/bench-jxl.sh

## bench-placeholders: ThumbHash and BlurHash from 12 and 24 MP JPEGs beside thumbhash-python and blurhash-python (from PyPI).
bench-placeholders: deps-bench
	/usr/bin/python3 scripts/bench-placeholders.py

## bench-smartcrop: how often attention and entropy crops keep the subject (a labelled set) beside
## vips smartcrop, and what they cost beside vipsthumbnail --smartcrop.
bench-smartcrop: deps-bench
	for product in photo-fit codec-bench; do swift build -c release --product $$product || exit 1; done
	/usr/bin/python3 scripts/bench-smartcrop.py

## bench-fit: photo-fit renditions beside vipsthumbnail, ImageMagick, Pillow, djpeg;
## the JPEG rows in process against tjbench's decode + encode (the floor).
bench-fit: deps-bench
	for product in photo-fit codec-bench; do swift build -c release --product $$product || exit 1; done
	/usr/bin/python3 scripts/bench-fit.py

## bench-hostile: what hostile state and answers cost (a panorama, a grid of them,
## a journal's garbage tail, a trickling URL), beside vipsthumbnail and ImageMagick.
bench-hostile: deps-bench
	for product in photo-fit photo-browser photo-album; do swift build -c release --product $$product || exit 1; done
	/usr/bin/python3 scripts/bench-hostile.py

## bench-heif: HEIC and AVIF renditions beside vipsthumbnail and heif-convert; colour management's cost.
bench-heif: deps-bench
	swift build -c release --product photo-fit
	/usr/bin/python3 scripts/bench-heif.py
