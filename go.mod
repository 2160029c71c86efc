module wuzi

go 1.26

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/spf13/pflag v1.0.10
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
